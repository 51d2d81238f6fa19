class Program_weight_tensor_meta_hidden_states_3:
    name = "in_0"
    original_name = "hidden_states_3"
    shape = [1, 128, 8, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.455
    data = None
