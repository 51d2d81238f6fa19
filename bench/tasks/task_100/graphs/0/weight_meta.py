class Program_weight_tensor_meta_hidden_states_4:
    name = "in_0"
    original_name = "hidden_states_4"
    shape = [2, 512, 799]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.014
    std = 0.924
    data = None
