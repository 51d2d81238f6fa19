class Program_weight_tensor_meta_neg:
    name = "in_0"
    original_name = "neg"
    shape = [2, 16, 32, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.003
    std = 0.633
    data = None


class Program_weight_tensor_meta_x1:
    name = "in_1"
    original_name = "x1"
    shape = [2, 16, 32, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.007
    std = 0.635
    data = None


class Program_weight_tensor_meta_sin_3:
    name = "in_2"
    original_name = "sin_3"
    shape = [1, 1, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.163
    std = 0.435
    data = None


class Program_weight_tensor_meta_mul_3:
    name = "in_3"
    original_name = "mul_3"
    shape = [2, 16, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.562
    data = None


class Program_weight_tensor_meta_key_rot:
    name = "in_4"
    original_name = "key_rot"
    shape = [2, 16, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.635
    data = None


class Program_weight_tensor_meta_cos_3:
    name = "in_5"
    original_name = "cos_3"
    shape = [1, 1, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.637
    std = 0.615
    data = None


class Program_weight_tensor_meta_query_pass:
    name = "in_6"
    original_name = "query_pass"
    shape = [2, 16, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 0.637
    data = None


class Program_weight_tensor_meta_key_pass:
    name = "in_7"
    original_name = "key_pass"
    shape = [2, 16, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.001
    std = 0.631
    data = None
