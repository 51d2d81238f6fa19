class Program_weight_tensor_meta_hidden_states_3:
    name = "in_0"
    original_name = "hidden_states_3"
    shape = [1, 128, 512]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.003
    std = 0.229
    data = None


class Program_weight_tensor_meta_hidden_states_1:
    name = "in_1"
    original_name = "hidden_states_1"
    shape = [1, 128, 512]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.002
    std = 0.040
    data = None
