class Program_weight_tensor_meta_matmul:
    name = "in_0"
    original_name = "matmul"
    shape = [2, 4, 50, 50]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.025
    std = 0.819
    data = None
