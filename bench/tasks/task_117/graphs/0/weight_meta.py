class Program_weight_tensor_meta_attn_weights_1:
    name = "in_0"
    original_name = "attn_weights_1"
    shape = [1, 12, 128, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.015
    data = None
