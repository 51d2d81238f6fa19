class Program_weight_tensor_meta_hidden_state_24:
    name = "in_0"
    original_name = "hidden_state_24"
    shape = [4, 192, 16, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.003
    std = 0.047
    data = None


class Program_weight_tensor_meta_hidden_state_26:
    name = "in_1"
    original_name = "hidden_state_26"
    shape = [4, 192, 16, 16]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.009
    std = 0.206
    data = None
