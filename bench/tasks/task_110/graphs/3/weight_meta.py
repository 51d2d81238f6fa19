class Program_weight_tensor_meta_hidden_states_52:
    name = "in_0"
    original_name = "hidden_states_52"
    shape = [4, 192, 64, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.000
    data = None
