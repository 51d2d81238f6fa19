class Program_weight_tensor_meta_hidden_states_18:
    name = "in_0"
    original_name = "hidden_states_18"
    shape = [2, 512, 20, 20]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.005
    std = 0.365
    data = None


class Program_weight_tensor_meta_hidden_state_5:
    name = "in_1"
    original_name = "hidden_state_5"
    shape = [2, 512, 20, 20]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.010
    std = 0.329
    data = None
