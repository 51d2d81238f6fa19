class Program_weight_tensor_meta_ffn_output:
    name = "in_0"
    original_name = "ffn_output"
    shape = [1, 128, 3072]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.011
    std = 0.556
    data = None
