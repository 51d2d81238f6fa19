class Program_weight_tensor_meta_cls_token_1:
    name = "in_0"
    original_name = "cls_token_1"
    shape = [1, 1, 384]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.990
    data = None


class Program_weight_tensor_meta_hidden_state_67:
    name = "in_1"
    original_name = "hidden_state_67"
    shape = [1, 49, 384]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.058
    data = None
