class Program_weight_tensor_meta_hidden_state_4:
    name = "in_0"
    original_name = "hidden_state_4"
    shape = [2, 128, 80, 80]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = 0.003
    std = 0.221
    data = None
