class Program_weight_tensor_meta_hidden_states_24:
    name = "in_0"
    original_name = "hidden_states_24"
    shape = [1, 784, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 0.003
    data = None


class Program_weight_tensor_meta_embeddings_5:
    name = "in_1"
    original_name = "embeddings_5"
    shape = [1, 784, 64]
    dtype = "torch.float32"
    device = "cpu"
    mean = -0.000
    std = 1.000
    data = None
