class Program_weight_tensor_meta_hidden_states_1:
    name = "in_0"
    original_name = "hidden_states_1"
    shape = [4, 64, 4096]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 0.632
    data = None
