class Program_weight_tensor_meta_hidden_states_18:
    name = "in_0"
    original_name = "hidden_states_18"
    shape = [1, 512, 28, 28]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.005
    std = 0.367
    data = None


class Program_weight_tensor_meta_hidden_state_5:
    name = "in_1"
    original_name = "hidden_state_5"
    shape = [1, 512, 28, 28]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.010
    std = 0.331
    data = None
