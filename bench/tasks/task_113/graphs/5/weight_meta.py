class Program_weight_tensor_meta_hidden_states_3:
    name = "in_0"
    original_name = "hidden_states_3"
    shape = [4, 64, 2048]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.002
    std = 1.001
    data = None
