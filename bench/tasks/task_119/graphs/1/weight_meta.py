class Program_weight_tensor_meta_pooled_output:
    name = "in_0"
    original_name = "pooled_output"
    shape = [4, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.018
    std = 0.459
    data = None
