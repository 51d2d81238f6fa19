class Program_weight_tensor_meta_ffn_output:
    name = "in_0"
    original_name = "ffn_output"
    shape = [4, 64, 3072]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.012
    std = 0.555
    data = None
