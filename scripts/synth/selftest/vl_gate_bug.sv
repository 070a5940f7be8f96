// Self-test fixture: the reference for vl_gate_bug_gl.v (same function, written plainly).
`default_nettype none
module vl_gate_bug (input wire logic [3:0] a_i, output logic [2:0] y_o);
  logic y0, y1;
  assign y0  = !(!(a_i[0] || a_i[1]) || a_i[2]);
  assign y1  = !(a_i[3] || y0);
  assign y_o = {!(y0 || y1), y1, y0};
endmodule
`default_nettype wire
