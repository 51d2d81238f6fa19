class Program_weight_tensor_meta_hidden_states_2:
    name = "in_0"
    original_name = "hidden_states_2"
    shape = [4, 64, 2048]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.000
    std = 0.447
    data = None
