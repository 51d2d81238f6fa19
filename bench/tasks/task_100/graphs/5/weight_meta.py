class Program_weight_tensor_meta_hidden_states_3:
    name = "in_0"
    original_name = "hidden_states_3"
    shape = [1, 128, 2048]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.003
    std = 0.451
    data = None
