class Program_weight_tensor_meta_hidden_states:
    name = "in_0"
    original_name = "hidden_states"
    shape = [1, 128, 512]
    dtype = "torch.float16"
    device = "cpu"
    mean = -0.000
    std = 0.003
    data = None
