class Program_weight_tensor_meta_hidden_states_6:
    name = "in_0"
    original_name = "hidden_states_6"
    shape = [128, 3072]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.002
    std = 0.550
    data = None
