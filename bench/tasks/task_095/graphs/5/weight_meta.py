class Program_weight_tensor_meta_cls_token_1:
    name = "in_0"
    original_name = "cls_token_1"
    shape = [4, 1, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.989
    data = None


class Program_weight_tensor_meta_hidden_state_67:
    name = "in_1"
    original_name = "hidden_state_67"
    shape = [4, 49, 384]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.058
    data = None
