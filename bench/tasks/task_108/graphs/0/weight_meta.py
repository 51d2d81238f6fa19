class Program_weight_tensor_meta_matmul:
    name = "in_0"
    original_name = "matmul"
    shape = [1, 6, 198, 198]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.002
    std = 1.211
    data = None
