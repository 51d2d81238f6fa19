class Program_weight_tensor_meta_matmul:
    name = "in_0"
    original_name = "matmul"
    shape = [1, 8, 128, 128]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.990
    data = None
