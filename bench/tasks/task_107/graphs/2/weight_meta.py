class Program_weight_tensor_meta_matmul:
    name = "in_0"
    original_name = "matmul"
    shape = [4, 8, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.002
    std = 1.001
    data = None
