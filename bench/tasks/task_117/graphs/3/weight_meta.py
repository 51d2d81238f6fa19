class Program_weight_tensor_meta_attention_scores_3:
    name = "in_0"
    original_name = "attention_scores_3"
    shape = [4, 6, 64, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -3.7218381346676444e+37
    std = 1.0620576510446702e+38
    data = None
