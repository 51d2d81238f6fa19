class Program_weight_tensor_meta_hidden_states_52:
    name = "in_0"
    original_name = "hidden_states_52"
    shape = [1, 192, 112, 112]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.000
    data = None
