class Program_weight_tensor_meta_neg:
    name = "in_0"
    original_name = "neg"
    shape = [1, 16, 128, 16]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.002
    std = 0.632
    data = None


class Program_weight_tensor_meta_x1:
    name = "in_1"
    original_name = "x1"
    shape = [1, 16, 128, 16]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.001
    std = 0.631
    data = None


class Program_weight_tensor_meta_sin_3:
    name = "in_2"
    original_name = "sin_3"
    shape = [1, 1, 128, 32]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.167
    std = 0.510
    data = None


class Program_weight_tensor_meta_mul_3:
    name = "in_3"
    original_name = "mul_3"
    shape = [1, 16, 128, 32]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.001
    std = 0.532
    data = None


class Program_weight_tensor_meta_key_rot:
    name = "in_4"
    original_name = "key_rot"
    shape = [1, 16, 128, 32]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.002
    std = 0.629
    data = None


class Program_weight_tensor_meta_cos_3:
    name = "in_5"
    original_name = "cos_3"
    shape = [1, 1, 128, 32]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.495
    std = 0.683
    data = None


class Program_weight_tensor_meta_query_pass:
    name = "in_6"
    original_name = "query_pass"
    shape = [1, 16, 128, 32]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.001
    std = 0.630
    data = None


class Program_weight_tensor_meta_key_pass:
    name = "in_7"
    original_name = "key_pass"
    shape = [1, 16, 128, 32]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.003
    std = 0.634
    data = None
