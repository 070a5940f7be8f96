// Self-test fixture: uses an implicitly declared net; synth.sh must fail it.
module fx_implicit (input logic a_i, input logic b_i, output logic y_o);
  assign w = a_i & b_i;
  assign y_o = w;
endmodule
