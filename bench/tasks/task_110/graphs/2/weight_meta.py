class Program_weight_tensor_meta_hidden_state:
    name = "in_0"
    original_name = "hidden_state"
    shape = [1, 64, 112, 112]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.006
    std = 12.039
    data = None
