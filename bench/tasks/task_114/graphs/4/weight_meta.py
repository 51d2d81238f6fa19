class Program_weight_tensor_meta_query_layer:
    name = "in_0"
    original_name = "query_layer"
    shape = [1, 4, 128, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.001
    std = 0.073
    data = None


class Program_weight_tensor_meta_key_layer:
    name = "in_1"
    original_name = "key_layer"
    shape = [1, 4, 128, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.001
    std = 0.070
    data = None


class Program_weight_tensor_meta_value_layer:
    name = "in_2"
    original_name = "value_layer"
    shape = [1, 4, 128, 64]
    dtype = "torch.float16"
    device = "cpu"
    mean = 0.004
    std = 0.070
    data = None


class Program_weight_tensor_meta_attention_mask_1:
    name = "in_3"
    original_name = "attention_mask_1"
    shape = [1, 1, 128, 128]
    dtype = "torch.bool"
    device = "cpu"
    mean = None
    std = None
    data = None
