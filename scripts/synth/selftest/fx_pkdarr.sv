// Self-test fixture: a packed array of packed structs. Verilator reads it as the standard says
// (y_o = a_i[23:12]); Yosys 0.23 silently keeps one 12-bit element and indexes bits, so it
// builds y_o = {11'b0, a_i[1]}. The gate-level check must catch it.
`default_nettype none
module fx_pkdarr (input wire logic [23:0] a_i, output logic [11:0] y_o);
  fx_pkg::item_t [1:0] t;
  assign t   = a_i;
  assign y_o = t[1];
endmodule
`default_nettype wire
