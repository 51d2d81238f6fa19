class Program_weight_tensor_meta_to_3:
    name = "in_0"
    original_name = "to_3"
    shape = [1, 128, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 1.002
    data = None
