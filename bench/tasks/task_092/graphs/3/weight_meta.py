class Program_weight_tensor_meta_hidden_state_15:
    name = "in_0"
    original_name = "hidden_state_15"
    shape = [1, 2048, 7, 7]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.192
    std = 0.289
    data = None
    min_val = 0.000
    max_val = 2.040
