class Program_weight_tensor_meta_attention_score:
    name = "in_0"
    original_name = "attention_score"
    shape = [4, 12, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.081
    std = 0.655
    data = None


class Program_weight_tensor_meta_mask:
    name = "in_1"
    original_name = "mask"
    shape = [4, 1, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -2.1184571182822097e+37
    std = 8.204999331519158e+37
    data = None
