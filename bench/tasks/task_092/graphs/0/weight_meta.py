class Program_weight_tensor_meta_hidden_state_8:
    name = "in_0"
    original_name = "hidden_state_8"
    shape = [1, 128, 56, 56]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.065
    std = 0.093
    data = None
    min_val = 0.000
    max_val = 0.777
