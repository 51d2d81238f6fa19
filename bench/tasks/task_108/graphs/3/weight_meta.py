class Program_weight_tensor_meta_matmul:
    name = "in_0"
    original_name = "matmul"
    shape = [1, 6, 197, 197]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.004
    std = 1.219
    data = None
