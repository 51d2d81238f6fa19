class Program_weight_tensor_meta_attention_scores_1:
    name = "in_0"
    original_name = "attention_scores_1"
    shape = [4, 12, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.002
    std = 0.307
    data = None


class Program_weight_tensor_meta_values_2:
    name = "in_1"
    original_name = "values_2"
    shape = [4, 12, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.023
    data = None
