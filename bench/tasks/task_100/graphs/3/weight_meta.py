class Program_weight_tensor_meta_hidden_states_4:
    name = "in_0"
    original_name = "hidden_states_4"
    shape = [2, 128, 799]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.083
    std = 0.928
    data = None
