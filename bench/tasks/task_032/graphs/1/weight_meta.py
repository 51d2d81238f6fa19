class Program_weight_tensor_meta_L_args_0_modules_rotary_emb_buffers_inv_freq_:
    name = "in_0"
    original_name = "L_args_0_modules_rotary_emb_buffers_inv_freq_"
    shape = [32]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.125
    std = 0.240
    data = None
    min_val = 0.000
    max_val = 1.000


class Program_weight_tensor_meta_float_1:
    name = "in_1"
    original_name = "float_1"
    shape = [1, 128, 1]
    dtype = "torch.float32"
    device = "cpu"
    mean = 63.500
    std = 37.094
    data = None
    min_val = 0.000
    max_val = 127.000
