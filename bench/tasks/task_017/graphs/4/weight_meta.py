class Program_weight_tensor_meta_L_kwargs_input_ids_:
    name = "in_0"
    original_name = "L_kwargs_input_ids_"
    shape = [2, 32]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = [11015, 16138, 924, 6796, 14887, 5905, 15590, 12991, 16821, 29973, 16823, 24955, 12708, 19692, 23881, 12335, 18307, 8957, 16683, 29191, 11713, 8953, 23247, 27643, 8536, 16425, 23820, 28786, 11331, 16658, 24770, 18565, 31724, 2289, 4759, 15803, 17742, 2318, 14601, 12002, 15863, 20899, 19216, 18372, 24833, 15861, 17077, 9831, 4123, 29408, 17797, 26867, 15019, 5022, 25224, 27903, 6896, 5857, 12661, 5301, 12380, 26633, 11678, 9366]


class Program_weight_tensor_meta_L_self_modules_encoder_modules_embed_tokens_parameters_weight_:
    name = "in_1"
    original_name = "L_self_modules_encoder_modules_embed_tokens_parameters_weight_"
    shape = [32128, 512]
    dtype = "torch.float32"
    device = "cpu"
    mean = 0.000
    std = 1.000
    data = None


class Program_weight_tensor_meta_L_kwargs_attention_mask_:
    name = "in_2"
    original_name = "L_kwargs_attention_mask_"
    shape = [2, 32]
    dtype = "torch.int64"
    device = "cpu"
    mean = None
    std = None
    data = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]
