class Program_weight_tensor_meta_hidden_state_12:
    name = "in_0"
    original_name = "hidden_state_12"
    shape = [4, 256, 32, 32]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 1.000
    data = None
