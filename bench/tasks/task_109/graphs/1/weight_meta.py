class Program_weight_tensor_meta_x2_1:
    name = "in_0"
    original_name = "x2_1"
    shape = [1, 4, 128, 32]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.007
    std = 1.005
    data = None
