class Program_weight_tensor_meta_query_states_1:
    name = "in_0"
    original_name = "query_states_1"
    shape = [4, 16, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.002
    std = 0.632
    data = None


class Program_weight_tensor_meta_key_states_1:
    name = "in_1"
    original_name = "key_states_1"
    shape = [4, 16, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.001
    std = 0.633
    data = None


class Program_weight_tensor_meta_value_states:
    name = "in_2"
    original_name = "value_states"
    shape = [4, 16, 64, 64]
    dtype = "torch.bfloat16"
    device = "cpu"
    mean = -0.002
    std = 0.631
    data = None


class Program_weight_tensor_meta_attention_mask_1:
    name = "in_3"
    original_name = "attention_mask_1"
    shape = [4, 1, 64, 64]
    dtype = "torch.bool"
    device = "cpu"
    mean = None
    std = None
    data = None
