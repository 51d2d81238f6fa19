class Program_weight_tensor_meta_linear_2:
    name = "in_0"
    original_name = "linear_2"
    shape = [1, 128, 256]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.001
    std = 0.638
    data = None


class Program_weight_tensor_meta_cos_2:
    name = "in_1"
    original_name = "cos_2"
    shape = [1, 128, 256]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.518
    std = 0.673
    data = None


class Program_weight_tensor_meta_sin_2:
    name = "in_2"
    original_name = "sin_2"
    shape = [1, 128, 256]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.168
    std = 0.500
    data = None


class Program_weight_tensor_meta_query_states:
    name = "in_3"
    original_name = "query_states"
    shape = [1, 4, 128, 256]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.002
    std = 0.641
    data = None


class Program_weight_tensor_meta_key_states:
    name = "in_4"
    original_name = "key_states"
    shape = [1, 1, 128, 256]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.002
    std = 0.644
    data = None
