class Program_weight_tensor_meta_hidden_states_1:
    name = "in_0"
    original_name = "hidden_states_1"
    shape = [1, 128, 4096]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.633
    data = None
