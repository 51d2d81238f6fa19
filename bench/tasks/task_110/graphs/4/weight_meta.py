class Program_weight_tensor_meta_L_pixel_values_:
    name = "in_0"
    original_name = "L_pixel_values_"
    shape = [4, 3, 128, 128]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 1.002
    data = None
