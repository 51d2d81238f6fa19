class Program_weight_tensor_meta_hidden_states_30:
    name = "in_0"
    original_name = "hidden_states_30"
    shape = [2, 400, 256]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.009
    data = None
