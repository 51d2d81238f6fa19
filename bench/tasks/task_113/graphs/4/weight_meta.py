class Program_weight_tensor_meta_hidden_states_4:
    name = "in_0"
    original_name = "hidden_states_4"
    shape = [1, 64, 56, 56]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.032
    std = 0.647
    data = None
