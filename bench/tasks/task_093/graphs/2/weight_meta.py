class Program_weight_tensor_meta_hidden_states_1:
    name = "in_0"
    original_name = "hidden_states_1"
    shape = [1, 128, 256]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.000
    std = 0.013
    data = None


class Program_weight_tensor_meta_embedding_output:
    name = "in_1"
    original_name = "embedding_output"
    shape = [1, 128, 256]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.013
    std = 0.220
    data = None
