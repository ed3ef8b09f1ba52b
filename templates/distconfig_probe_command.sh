sh -s -- {{boundary}} {{launcher}}
