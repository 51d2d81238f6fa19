class Program_weight_tensor_meta_mul_3:
    name = "in_0"
    original_name = "mul_3"
    shape = [1, 128, 3072]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.009
    std = 0.462
    data = None
