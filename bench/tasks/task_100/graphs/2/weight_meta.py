class Program_weight_tensor_meta_hidden_states_5:
    name = "in_0"
    original_name = "hidden_states_5"
    shape = [1, 3136, 384]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.196
    data = None
