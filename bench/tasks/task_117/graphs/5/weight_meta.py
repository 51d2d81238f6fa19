class Program_weight_tensor_meta_attention_scores_3:
    name = "in_0"
    original_name = "attention_scores_3"
    shape = [4, 2, 256, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.026
    data = None
