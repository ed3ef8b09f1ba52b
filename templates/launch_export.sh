export {{key|raw}}={{value}}
