// Self-test fixture: a struct field whose range does not start at 0 ([3:1]), read by bit.
// The standard (and Verilator) reads y_o = a_i[5] (the field's bit 3); Yosys 0.23 counts the index from the
// field's low end and builds y_o = a_i[... the next field's bit]. The gate-level check must catch it.
`default_nettype none
module fx_fieldrng (input wire logic [7:0] a_i, output logic [2:0] y_o);
  typedef struct packed {
    logic [1:0] hi;
    logic [3:1] f;
    logic [2:0] lo;
  } s_t;
  s_t s;
  assign s   = a_i;
  assign y_o = {s.f[3], s.f[2], s.f[1]};
endmodule
`default_nettype wire
